/*
 * The ten assets of the product (spec 001 section 1), in the spec's order: one list for the
 * ledger, the server and the client (ledger/assets.ts holds it; nothing else writes it again).
 */

export { ASSETS, ASSET_IDS, isAssetId, type AssetId } from '../assets.js';

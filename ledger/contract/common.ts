import { z } from 'zod';

/*
 * What every call's answer shares (docs/api-*.md): the refusal shape, times, decimal strings.
 * The feature contracts beside this file build on these.
 */

/**
 * Every refusal: `{ error: "text" }` (the spec's function error shape). Auth refusals add a
 * machine-readable `code`; the password check of Settings also says `success: false`.
 */
export const ErrorAnswer = z
  .object({ error: z.string(), code: z.string().optional(), success: z.literal(false).optional() })
  .meta({ description: 'A refusal: the text the client shows (`code` on auth refusals).' });
export type ErrorAnswer = z.infer<typeof ErrorAnswer>;

/** A moment as ISO 8601 text (a database time is written as `toISOString` writes it). */
export const Timestamp = z.union([z.string(), z.date()]).meta({ description: 'ISO 8601 time' });

/** An amount or a price: a decimal number as text, never a float. */
export const Decimal = z.string().meta({ description: 'decimal number as text' });

/** The plain acknowledgement of a command. */
export const Done = z.object({ success: z.boolean().meta({ description: 'always true' }) });

/** Answers with no body (204) and redirects. */
export const NoContent = z.null().meta({ description: 'no body' });

/** Answers that are not JSON (files, HTML pages, CSV), sent as they are; `kind` says which. */
export const Bytes = (kind: string) =>
  z
    .custom<Uint8Array | string>((v) => typeof v === 'string' || v instanceof Uint8Array)
    .meta({ type: 'string', format: 'binary', description: kind });

/*
 * What requests share: the request-shape rules the feature contracts' bodies and queries build on.
 * The server checks the meaning (an amount's value, an asset's id) with the spec's own texts.
 */

/** An amount as a request may carry it: decimal text (preferred) or a JSON number; the server's `requestAmount` checks it. */
export const AmountInput = z.union([z.string().max(64), z.number()]);

/** A page number of a staff list, from 1. */
export const PageNumber = z.coerce.number().int().min(1).max(100_000);

/** Rows per page of a staff list. */
export const PageSize = z.coerce.number().int().min(1).max(100);

/** A call about one user: whose profile, ban, KYC or access is meant. */
export const TargetUserBody = z.object({ targetUserId: z.uuid() });

/** The path of a call about one thing by its id (`/transactions/:id`, `/sessions/:id`, `/support-tickets/:id`). */
export const ById = z.object({ id: z.uuid() });

/** The path of a staff call about one customer (`/users/:userId/...`). */
export const ByUserId = z.object({ userId: z.uuid() });

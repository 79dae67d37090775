import { describeFourEyesModel } from '../../tests/support/four-eyes-model.js';

// The model-based search for second paths around the two-person rule (tests/support/four-eyes-model.ts):
// 200 sequences on each database of `npm test`; `npm run test:long` runs 10,000.
describeFourEyesModel(200);

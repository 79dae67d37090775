import { describeFourEyesModel } from '../support/four-eyes-model.js';

// 10,000 sequences of the model-based search for second paths around the two-person rule
// (tests/support/four-eyes-model.ts), on PGlite, or on PostgreSQL with DATABASE_URL
// (`DATABASE_URL=... npx vitest run --config vitest.long.config.ts tests/long/four-eyes-model.long.spec.ts`).
describeFourEyesModel(10_000);

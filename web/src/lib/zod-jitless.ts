// The client's `zod` (web/vite.config.ts points every `import ... from 'zod'` here): zod with its
// parsers interpreted rather than compiled. zod compiles an object schema's parser with
// `new Function` when it is built; the content security policy forbids eval, so every schema
// would report a violation before zod fell back. Set here, before any schema module runs.
import { config } from 'zod/v4';

config({ jitless: true });

export * from 'zod/v4';

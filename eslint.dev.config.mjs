// The project's own lint of its dev-only TypeScript (test/, sandbox/): ESLint's and
// typescript-eslint's recommended rules. n8n's rules for the code n8n loads (eslint.config.mjs,
// n8n's default config, which strict mode requires unchanged) do not fit code that starts servers
// and reads files. test/eslint.config.mjs and sandbox/eslint.config.mjs are this file; `npm run lint`
// has ESLint look a file's config up from its own folder (docs/publishing.md, "n8n's node tool").
import js from '@eslint/js';
import { globalIgnores } from 'eslint/config';
import tseslint from 'typescript-eslint';

export default tseslint.config(globalIgnores(['**/*.js', '**/*.mjs']), {
	files: ['**/*.ts'],
	extends: [js.configs.recommended, tseslint.configs.recommended],
});

/** The text checks (nodes/BusinessOps/shared/validation.ts) at their edges; the ID check: errors.test.ts. */
import { textProblem } from '../../nodes/BusinessOps/shared/validation';

test.each(['http://', 'https://', 'http://@/', 'http://:80'])(
	'refuses "%s": an http(s) URL without a host does not parse',
	(url) => {
		expect(textProblem('httpUrl', url)).toBe(`"${url}" is not an http:// or https:// URL`);
	},
);

test.each(['http://x', 'https://hooks.example.com/paid', 'http:hooks.example.com'])(
	'accepts "%s"',
	(url) => {
		expect(textProblem('httpUrl', url)).toBeUndefined();
	},
);

import type { IDataObject } from 'n8n-workflow';

import { asBoolean } from '../shared/typing';

/** The trigger's yes/no options (all off by default), with their labels. */
const SWITCHES = {
	ignoreRepeatedDeliveries: 'Ignore Repeated Deliveries',
	includeHeaders: 'Include Headers',
	skipReachabilityCheck: 'Skip Reachability Check',
} as const;

/** A yes/no option by the package's boolean rule ("true" text is true); unset or unreadable is off (switchProblem refuses it at activation). */
export function isOn(options: IDataObject, name: keyof typeof SWITCHES): boolean {
	const typed = asBoolean(options[name]);
	return 'value' in typed && typed.value === true;
}

/** The first yes/no option that cannot be read as true or false, and why. */
export function switchProblem(options: IDataObject): string | undefined {
	for (const [name, label] of Object.entries(SWITCHES)) {
		if (options[name] === undefined) continue;
		const typed = asBoolean(options[name]);
		if ('problem' in typed) return `${label}: ${typed.problem}`;
	}
	return undefined;
}

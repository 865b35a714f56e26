// The one walk over the node's description that both the unit generator
// (test/node/emptyValues.test.ts) and the e2e area `engine` take their fields from: every
// resource and operation, and for each, one case per field a user can fill (collection options,
// fixedCollection row leaves such as line items, top-level fields). Plain JS so that jest and the
// e2e harness (which reads the description real n8n serves) require the same code.
'use strict';

/** Valid values for the fields whose checks need one. */
const SAMPLE_BY_NAME = require('../fixtures/field-samples.json');

const byId = (value) => ({ __rl: true, mode: 'id', value });

/** A valid value for a field, by what its checks accept. */
function sample(field) {
	if (field.name in SAMPLE_BY_NAME) return SAMPLE_BY_NAME[field.name];
	switch (field.type) {
		case 'resourceLocator':
			return byId('x_1');
		case 'number':
			return 5;
		case 'boolean':
			return true;
		case 'options':
			return field.options?.[0]?.value ?? 'x';
		case 'multiOptions':
			return ['invoice.paid'];
		case 'fixedCollection': {
			const group = field.options[0];
			return {
				[group.name]: [
					Object.fromEntries(
						group.values.filter((leaf) => leaf.required).map((leaf) => [leaf.name, sample(leaf)]),
					),
				],
			};
		}
		default:
			return 'Sample';
	}
}

function shownFor(field, resource, operation) {
	const show = field.displayOptions?.show ?? {};
	return (
		(show.resource ?? [resource]).includes(resource) &&
		(show.operation ?? [operation]).includes(operation) &&
		!['resource', 'operation', 'requestOptions'].includes(field.name)
	);
}

/** Every resource and operation of a node description's properties, with the top-level fields each shows. */
function operations(properties) {
	const resources = properties
		.find((p) => p.name === 'resource')
		.options.map((o) => String(o.value));
	return resources.flatMap((resource) => {
		const selector = properties.find(
			(p) => p.name === 'operation' && p.displayOptions?.show?.resource?.includes(resource),
		);
		// n8n adds a "Custom API Call" resource with no operations of the node's own
		if (!selector) return [];
		return selector.options.map((option) => {
			const operation = String(option.value);
			return {
				resource,
				operation,
				fields: properties.filter((field) => shownFor(field, resource, operation)),
			};
		});
	});
}

/** The creates and updates (Update Status, Update Autonomy too). */
const isWrite = (op) => op.operation === 'create' || /^update/.test(op.operation);

/** The parameters of an operation with every required field (and its own show conditions) given. */
function baseParameters({ resource, operation, fields }) {
	const parameters = { resource, operation };
	for (const field of fields) {
		if (field.required && field.displayOptions?.show?.itemsInput?.[0] !== 'json')
			parameters[field.name] = sample(field);
	}
	return parameters;
}

function sendsOf(field) {
	const send = field.routing?.send;
	if (send?.property === undefined) return undefined;
	return { type: send.type === 'query' ? 'query' : 'body', property: String(send.property) };
}

/** The values a field's own show conditions ask for (Items (JSON) shows for Items Input "JSON"). */
function showValues(field) {
	const shown = Object.entries(field.displayOptions?.show ?? {}).filter(
		([name]) => name !== 'resource' && name !== 'operation',
	);
	return Object.fromEntries(shown.map(([name, values]) => [name, values[0]]));
}

/**
 * Other optional top-level fields given a value, so that an operation that refuses to change
 * nothing (Update Autonomy) still has something to send; never one that decides whether `field` shows.
 */
function anchorsFor(op, field) {
	const deciding = [
		...Object.keys(field.displayOptions?.show ?? {}),
		...Object.keys(field.displayOptions?.hide ?? {}),
	];
	const others = op.fields.filter(
		(other) =>
			other !== field &&
			!other.required &&
			!other.noDataExpression &&
			other.type !== 'collection' &&
			other.type !== 'fixedCollection' &&
			!deciding.includes(other.name),
	);
	return Object.fromEntries(others.map((other) => [other.name, sample(other)]));
}

/**
 * One case per field of an operation a user can fill:
 * - title: "resource operation: Field > Leaf";
 * - parameters(empty): the operation's parameters with `empty` at the field and valid values elsewhere;
 * - path: where `empty` sits in those parameters; sample: a valid value for that place;
 * - shows: the other fields' values the field needs to show; sends: what it sends, if it says;
 * - required, displayName, fieldType; field: the property that gets the value (a collection's option, a row's leaf).
 */
function casesOf(op) {
	const base = baseParameters(op);
	const title = (name) => `${op.resource} ${op.operation}: ${name}`;
	const cases = [];
	/** A case per leaf of a fixedCollection row, placed at `at` by `place`. */
	const rowCases = (field, name, at, place, shows) => {
		const group = field.options[0];
		const row = sample(field)[group.name][0];
		return group.values.map((leaf) => ({
			title: name(leaf.displayName),
			parameters: (empty) => place({ [group.name]: [{ ...row, [leaf.name]: empty }] }),
			path: [...at, group.name, 0, leaf.name],
			sample: sample(leaf),
			shows,
			sends: undefined,
			required: Boolean(leaf.required),
			displayName: field.displayName,
			fieldType: leaf.type,
			field: leaf,
		}));
	};
	for (const field of op.fields) {
		if (field.noDataExpression) continue;
		const shows = showValues(field);
		const around = () => ({ ...base, ...anchorsFor(op, field), ...shows });
		if (field.type === 'collection') {
			for (const child of field.options) {
				// an Update with only an empty field changes nothing: another field keeps it a real update
				const other = field.options.find(
					(o) => o.name !== child.name && o.type !== 'fixedCollection' && o.type !== 'json',
				);
				const place = (value) => ({
					...around(),
					[field.name]: { ...(other ? { [other.name]: sample(other) } : {}), [child.name]: value },
				});
				const name = (leaf) => title(`${field.displayName} > ${leaf}`);
				if (child.type === 'fixedCollection') {
					cases.push(
						...rowCases(
							child,
							(leaf) => name(`${child.displayName} > ${leaf}`),
							[field.name, child.name],
							place,
							shows,
						),
					);
					continue;
				}
				const locator = child.type === 'resourceLocator';
				cases.push({
					title: name(child.displayName),
					parameters: (empty) => place(locator ? byId(empty) : empty),
					path: locator ? [field.name, child.name, 'value'] : [field.name, child.name],
					sample: locator ? 'x_1' : sample(child),
					shows,
					sends: sendsOf(child),
					required: false,
					displayName: child.displayName,
					fieldType: child.type,
					field: child,
				});
			}
		} else if (field.type === 'fixedCollection') {
			cases.push(
				...rowCases(
					field,
					(leaf) => title(`${field.displayName} > ${leaf}`),
					[field.name],
					(value) => ({ ...around(), [field.name]: value }),
					shows,
				),
			);
		} else {
			const locator = field.type === 'resourceLocator';
			cases.push({
				title: title(field.displayName),
				parameters: (empty) => ({ ...around(), [field.name]: locator ? byId(empty) : empty }),
				path: locator ? [field.name, 'value'] : [field.name],
				sample: locator ? 'x_1' : sample(field),
				shows,
				sends: sendsOf(field),
				required: Boolean(field.required),
				displayName: field.displayName,
				fieldType: field.type,
				field,
			});
		}
	}
	return cases;
}

module.exports = { sample, operations, isWrite, baseParameters, casesOf };

// Types of fieldWalker.js for the TypeScript tests.
import type { INodeParameters, INodeProperties, NodeParameterValueType } from 'n8n-workflow';

export interface Operation {
	resource: string;
	operation: string;
	/** Top-level fields shown for this operation, besides Resource and Operation. */
	fields: INodeProperties[];
}

/** One field a user can fill, with the parameters that put a value there. */
export interface FieldCase {
	title: string;
	parameters: (empty: NodeParameterValueType) => INodeParameters;
	path: Array<string | number>;
	sample: NodeParameterValueType;
	shows: INodeParameters;
	sends?: { type: 'body' | 'query'; property: string };
	required: boolean;
	displayName: string;
	fieldType: string;
	/** The field that gets the value (a collection's option, a row's leaf). */
	field: INodeProperties;
}

export function sample(field: INodeProperties): NodeParameterValueType;
export function operations(properties: INodeProperties[]): Operation[];
export function isWrite(op: Operation): boolean;
export function baseParameters(op: Operation): INodeParameters;
export function casesOf(op: Operation): FieldCase[];

import type { INodeProperties } from 'n8n-workflow';

import { idLocator, showFor } from './descriptions';

const CONTACT = {
	displayName: 'Contact',
	name: 'contactId',
	searchListMethod: 'searchContacts',
	placeholder: 'e.g. ctc_8sK2m',
};

/** The contact picker of the Contact resource; its ID goes into the URL. */
export function contactIdField(operations: string[]): INodeProperties {
	return { ...idLocator(CONTACT), displayOptions: showFor('contact', operations) };
}

/** The contact a quote or an invoice is for, sent as body `contactId`. */
export function documentContactField(description: string | undefined, required = true): INodeProperties {
	return idLocator({ ...CONTACT, description, required, inBody: true });
}

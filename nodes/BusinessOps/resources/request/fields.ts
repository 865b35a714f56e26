import type { INodeProperties } from 'n8n-workflow';

import { idLocatorFor } from '../../shared/descriptions';

export const requestIdField: INodeProperties = idLocatorFor('request', ['get'], {
	displayName: 'Customer Request',
	name: 'requestId',
	searchListMethod: 'searchRequests',
	placeholder: 'e.g. req_3Lm8v',
});

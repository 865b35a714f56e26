import type { INodeProperties } from 'n8n-workflow';
export const quoteDescription: INodeProperties[] = [];

/** An error that becomes `{ "error": { code, message, ...extra } }` with the given HTTP status. */
export class ApiError extends Error {
	constructor(
		readonly status: number,
		readonly code: string,
		message: string,
		readonly extra: Record<string, string> = {},
		readonly headers: Record<string, string> = {},
	) {
		super(message);
	}

	body(): { error: { code: string; message: string } & Record<string, string> } {
		return { error: { code: this.code, message: this.message, ...this.extra } };
	}
}

/** 400 invalid_request; `field` is the path of the offending field (also returned as `error.field`). */
export function invalidRequest(message: string, field?: string): ApiError {
	return new ApiError(400, 'invalid_request', message, field === undefined ? {} : { field });
}

export function notFound(what: string, id: string): ApiError {
	return new ApiError(404, 'not_found', `${what} "${id}" was not found`);
}

export function duplicate(message: string, field: string): ApiError {
	return new ApiError(409, 'duplicate_resource', message, { field });
}

export function invalidState(message: string): ApiError {
	return new ApiError(422, 'invalid_state', message);
}

/** Error codes used for statuses a client may be made to see through the fail-next control. */
export function codeForStatus(status: number): string {
	const codes: Record<number, string> = {
		400: 'invalid_request',
		401: 'unauthorized',
		403: 'insufficient_scope',
		404: 'not_found',
		409: 'duplicate_resource',
		422: 'invalid_state',
		429: 'rate_limited',
		500: 'internal_error',
		502: 'bad_gateway',
		503: 'service_unavailable',
		504: 'gateway_timeout',
	};
	return codes[status] ?? (status >= 500 ? 'internal_error' : 'error');
}

/**
 * The action node's requests on their way: each item's request RoutingNode started, until it
 * settles. RoutingNode throws out of its build loop as soon as a later item fails to build under
 * Stop Workflow, while earlier items' requests are on their way; engine.ts `runRoutingNode` awaits
 * those before it returns, and setup.ts fails a test that ends with any still on its way (a request
 * that outlived its test would meet the next test's interceptors, or none).
 */
const onTheirWay = new Set<Promise<unknown>>();

/** Counts the request until it settles. */
export function track<T>(request: Promise<T>): Promise<T> {
	onTheirWay.add(request);
	const done = () => onTheirWay.delete(request);
	request.then(done, done);
	return request;
}

/** Waits until every request a node run started has settled; how many were still on their way. */
export async function settleRequests(): Promise<number> {
	const left = onTheirWay.size;
	while (onTheirWay.size > 0) await Promise.allSettled([...onTheirWay]);
	return left;
}

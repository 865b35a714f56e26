/**
 * The action node's requests on their way: each item's request RoutingNode started, until it
 * settles. RoutingNode throws out of its build loop as soon as a later item fails to build under
 * Stop Workflow, while earlier items' requests are on their way; engine.ts `runRoutingNode` awaits
 * its own before it returns, and setup.ts fails a test that ends with any still on its way (a
 * request that outlived its test would meet the next test's interceptors, or none).
 */
const onTheirWay = new Set<Promise<unknown>>();

/** Counts the request in `requests` (and in every test's count) until it settles. */
export function track<T>(request: Promise<T>, requests = onTheirWay): Promise<T> {
	for (const set of new Set([requests, onTheirWay])) {
		set.add(request);
		const done = () => set.delete(request);
		request.then(done, done);
	}
	return request;
}

/** Waits until every request of `requests` (by default: of every run) settled; how many were on their way. */
export async function settleRequests(requests = onTheirWay): Promise<number> {
	const left = requests.size;
	while (requests.size > 0) await Promise.allSettled([...requests]);
	return left;
}

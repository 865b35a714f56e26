/** Timers that never keep the process alive and are all cancelled by clear() (stop/reset). */
export class TimerSet {
	private readonly pending = new Map<NodeJS.Timeout, () => void>();

	/** Resolves true after `ms`, or false when cleared first. */
	delay(ms: number): Promise<boolean> {
		return new Promise((resolve) => {
			const timer = setTimeout(() => {
				this.pending.delete(timer);
				resolve(true);
			}, ms);
			timer.unref();
			this.pending.set(timer, () => resolve(false));
		});
	}

	/** Runs `task` after `ms` unless cleared; `onCancel` runs instead when cleared. */
	schedule(ms: number, task: () => void, onCancel: () => void = () => undefined): () => void {
		const timer = setTimeout(() => {
			this.pending.delete(timer);
			task();
		}, ms);
		timer.unref();
		this.pending.set(timer, onCancel);
		return () => {
			if (this.pending.delete(timer)) {
				clearTimeout(timer);
				onCancel();
			}
		};
	}

	clear(): void {
		const cancels = Array.from(this.pending.entries());
		this.pending.clear();
		for (const [timer, cancel] of cancels) {
			clearTimeout(timer);
			cancel();
		}
	}
}

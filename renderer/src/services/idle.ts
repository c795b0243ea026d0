/** Runs `work` when the page is idle (within `timeout` ms at most), or after `timeout / 2` where there is no idle callback. */
export function whenIdle(work: () => void, timeout = 2000): void {
  if (typeof requestIdleCallback === 'function') requestIdleCallback(() => work(), { timeout })
  else setTimeout(work, timeout / 2)
}

/**
 * Ends this turn of the event loop and resumes after the I/O and timers already waiting (a health
 * check's request, an answer's socket write), via setImmediate, which runs after the poll phase.
 * Long work on the service's thread (writing a large answer in slices, storing a track in chunks,
 * unpacking a reading) awaits this between steps so that no step holds the thread for long: a
 * resolved promise or process.nextTick would resume before any waiting I/O and let nothing in.
 */
export function letWaitingWorkIn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

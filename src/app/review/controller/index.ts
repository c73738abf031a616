/** The review session the page drives: the controller and the shapes it reads and hands over. */
export { ReviewController } from './ReviewController';
export { BATCH_DELAY_MS } from './open-batch';
export type { EditRequest } from './ops';
export { NO_FILTERS, type Filters, type Notice, type RefusedDecision, type ReviewSnapshot, type ReviewTransport, type ShownItem, type Verdict } from './types';

export { CLIENT_OID_PATTERN, newClientOid } from './client-oid';
export { lookUpEntry } from './order-lookup';
export type { LookupResult } from './order-lookup';
export { OrderOutbox } from './order-outbox';
export type { OrderOutboxOptions, OutboxListener } from './order-outbox';
export { OutboxFile } from './outbox-file';

export { IPC_CHANNELS, IPC_EVENTS, isIpcChannel } from './contract';
export type {
  BudgetStatsView,
  CancelOrdersResult,
  IpcChannel,
  IpcChannels,
  IpcCheckedInput,
  IpcEvent,
  IpcEvents,
  IpcInput,
  IpcOutput,
  PollSubscription,
  ProfileView,
  VaultStatusView,
  VaultTestResult,
} from './contract';
export { IPC_ERROR_CODES } from './ipc-error';
export type { IpcError, IpcResult } from './ipc-error';
export {
  cancelOrdersSchema,
  decimalText,
  orderLegSchema,
  orderTicketSchema,
  TICKET_MAX_ORDERS,
  tpslTicketSchema,
} from './order-ticket';
export type { CancelOrdersRequest, OrderLeg, OrderTicket, TpslTicket } from './order-ticket';
export { NOT_RECEIVED_CODE, OUTBOX_STATES, SETTLED_OUTBOX_STATES } from './outbox-entry';
export type { OutboxEndpointId, OutboxEntry, OutboxState, OutboxTarget } from './outbox-entry';
export { queryKeySchema, queryKeyText, queryParamsSchema } from './query-key';
export type { QueryKey } from './query-key';

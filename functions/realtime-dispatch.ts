import { apiHandler } from '../shared/http/api-handler';
import { RealtimeDispatchRequest } from '../shared/schemas/dispatch';
import { sendRealtimeCommand } from '../shared/services/dispatch';

export const handler = apiHandler('realtime-dispatch', { body: RealtimeDispatchRequest }, ({ caller, body }) => sendRealtimeCommand(caller, body));

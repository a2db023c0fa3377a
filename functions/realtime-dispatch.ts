import { serve } from '../shared/http/api-handler';
import { sendRealtimeCommand } from '../shared/services/dispatch';

export const handler = serve('realtime-dispatch', { 'realtime-dispatch': ({ caller, body }) => sendRealtimeCommand(caller, body) });

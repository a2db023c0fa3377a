import { serve } from '../shared/http/api-handler';
import { DISPATCH_ROUTES } from '../shared/routes/dispatch';
import { sendRealtimeCommand } from '../shared/services/dispatch/dispatch';

export const handler = serve(DISPATCH_ROUTES, 'realtime-dispatch', { 'realtime-dispatch': ({ caller, body }) => sendRealtimeCommand(caller, body) });

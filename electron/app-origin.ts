// The app's own origin: the renderer is served from app://trading-terminal/ and only that origin's
// main frame may call main.
export const APP_SCHEME = 'app';
export const APP_HOST = 'trading-terminal';
export const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`;

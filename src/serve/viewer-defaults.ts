/** Where `handbook serve` listens unless told otherwise: this machine only. Apart from the server so the CLI can name them without loading it. */
export const DEFAULT_VIEWER_PORT = 4173;
export const DEFAULT_VIEWER_HOST = '127.0.0.1';

import { prepareReader, readEan13 } from './zxing-reader';

// The build copies the .wasm among the remote's hashed files (served by our gateway, cached for a
// year): no CDN, which a phone may not reach and the Content-Security-Policy refuses.
const wasmUrl = new URL('zxing-wasm/reader/zxing_reader.wasm', import.meta.url).href;
prepareReader({ locateFile: (path: string, prefix: string) => (path.endsWith('.wasm') ? wasmUrl : prefix + path) });

export { readEan13 };

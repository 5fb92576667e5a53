import helmet, { type FastifyHelmetOptions } from '@fastify/helmet';
import type { FastifyPluginAsync } from 'fastify';
import fp from 'fastify-plugin';

/**
 * Security headers on every response (@fastify/helmet). Pages, scripts and images get helmet's
 * whole set, with the policy the frontends need; the API's responses get the set an API needs
 * (`apiHelmet`, set on the /api routes).
 */
const pageHelmet: FastifyHelmetOptions = {
  contentSecurityPolicy: {
    directives: {
      defaultSrc: ["'self'"],
      // The listing form's barcode reader is WebAssembly (compiled from our own file, no eval of scripts).
      scriptSrc: ["'self'", "'wasm-unsafe-eval'"],
      // Toasts and dialogs set inline styles.
      styleSrc: ["'self'", "'unsafe-inline'"],
      imgSrc: ["'self'", 'data:', 'blob:', 'https:'],
      // The register page guesses the country from the browser's position (SPEC.md section 2).
      connectSrc: ["'self'", 'https://api.bigdatacloud.net'],
      frameSrc: ["'self'", 'https://www.openstreetmap.org'],
      upgradeInsecureRequests: null,
    },
  },
  // The shell loads its remotes' scripts from the same origin.
  crossOriginEmbedderPolicy: false,
};

/**
 * JSON, an event stream, a PDF receipt: they load nothing and are never framed. The headers that
 * still mean something for them (OWASP's REST cheat sheet): 5 headers of about 250 bytes on each
 * call instead of 12 of 850, for a phone to read.
 */
export const apiHelmet: FastifyHelmetOptions = {
  contentSecurityPolicy: { useDefaults: false, directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] } },
  crossOriginEmbedderPolicy: false,
  crossOriginOpenerPolicy: false,
  originAgentCluster: false,
  xDnsPrefetchControl: false,
  xDownloadOptions: false,
  xFrameOptions: false,
  xPermittedCrossDomainPolicies: false,
  xXssProtection: false,
};

const securityHeaders: FastifyPluginAsync = async (app) => {
  await app.register(helmet, { global: true, ...pageHelmet });
};

export const helmetPlugin = fp(securityHeaders, { name: 'cartable-helmet' });

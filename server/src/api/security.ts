// What the server tells browsers about itself: security headers on every page and file (helmet, with
// a content security policy that fits the client), and which other origins may call it (CORS).
import helmet from 'helmet';
import type { RequestHandler } from 'express';
import { matchMaker } from '@colyseus/core';

/**
 * The client needs: its own scripts and styles, images from its own origin plus data: and blob: (Phaser
 * makes textures that way), and fetch and WebSocket to its own origin ('self' covers ws: and wss:).
 * Nothing inline, nothing from elsewhere, and it may not be framed. Vite's dev server injects styles,
 * so `dev` allows inline styles.
 */
export function securityHeaders(options: { dev: boolean }): RequestHandler {
  return helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        scriptSrcAttr: ["'none'"],
        styleSrc: options.dev ? ["'self'", "'unsafe-inline'"] : ["'self'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        fontSrc: ["'self'", 'data:'],
        mediaSrc: ["'self'", 'data:', 'blob:'],
        workerSrc: ["'self'", 'blob:'],
        connectSrc: ["'self'"],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
      },
    },
    // The server speaks plain HTTP; whoever terminates TLS in front of it decides about HSTS.
    strictTransportSecurity: false,
    xFrameOptions: { action: 'deny' },
  });
}

/**
 * CORS: pages on another origin may call this server only when that origin is listed (`*`: any
 * origin). Listed origins may read every route (the writes still need the operator token, sent as a
 * header, never a cookie), so credentials are never allowed. Unlisted origins get no CORS headers at
 * all: their pages cannot read any answer. Colyseus sets these headers itself on every response
 * (its request listener runs before Express), so the policy is given to its matchmaking controller.
 */
export function applyCorsPolicy(origins: readonly string[]): void {
  const anyOrigin = origins.includes('*');
  const allowed = new Set(origins);
  // Its defaults allow any origin, with credentials: replaced, not merged.
  (matchMaker.controller as { DEFAULT_CORS_HEADERS: Record<string, string> }).DEFAULT_CORS_HEADERS = {};
  matchMaker.controller.getCorsHeaders = (headers: Headers): Record<string, string> => {
    const origin = headers.get('origin');
    // The answer depends on the Origin header: caches must know.
    const vary: Record<string, string> = anyOrigin ? {} : { Vary: 'Origin' };
    if (!origin || !(anyOrigin || allowed.has(origin))) return vary;
    return {
      ...vary,
      'Access-Control-Allow-Origin': anyOrigin ? '*' : origin,
      'Access-Control-Allow-Methods': 'GET, HEAD, POST, PUT, DELETE',
      'Access-Control-Allow-Headers': 'Authorization, Content-Type',
      'Access-Control-Max-Age': '600',
    };
  };
}

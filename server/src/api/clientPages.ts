// The client's second and third pages (analysis.html, personas.html): built into dist/client by Vite
// and served at a plain address (/analysis, /personas); in dev mode Vite serves the .html itself.
import fs from 'node:fs';
import path from 'node:path';
import type { Request, Response } from 'express';

const CLIENT_DIR = path.resolve('dist/client');

export function clientPage(file: string, dev: boolean): (req: Request, res: Response) => void {
  return (req, res) => {
    const query = req.originalUrl.includes('?') ? req.originalUrl.slice(req.originalUrl.indexOf('?')) : '';
    if (!dev && fs.existsSync(path.join(CLIENT_DIR, file))) res.sendFile(path.join(CLIENT_DIR, file));
    else res.redirect(`/${file}${query}`);
  };
}

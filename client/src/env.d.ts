// Vite's client types: CSS and asset imports in client modules.
/// <reference types="vite/client" />

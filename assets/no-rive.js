// Loaded instead of the Rive runtime from a CDN (assets/icon/make.py, NO_RIVE): this app draws no
// Rive animation, and the web app makes no request off its own origin.
window.RiveNative = function () { return Promise.reject(new Error("Rive is not bundled with this app")); };

// Runs inline in <head> before first paint so a dark-mode visitor never sees a white flash.
export const THEME_STORAGE_KEY = 'atlas-theme';

export const themeInitScript = `(function(){try{var t=localStorage.getItem('${THEME_STORAGE_KEY}');var d=t?t==='dark':matchMedia('(prefers-color-scheme: dark)').matches;document.documentElement.classList.toggle('dark',d);}catch(e){}})();`;

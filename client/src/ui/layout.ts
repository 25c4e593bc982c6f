// The page's frame: the clock bar on top (its height varies: it wraps on narrow windows) and the bottom
// bar (status now; room for a timeline later). Their heights go into CSS variables, so the panels sit
// between them, and to the town camera, whose viewport is the space left. The side log's width too.
export interface Insets {
  top: number;
  bottom: number;
  /** How far the side log covers the town from the left (the camera keeps the whole-town view clear of it when it can). */
  left: number;
  /** How far the inspector covers the town from the right (0 while it is closed). */
  right: number;
}

export function watchInsets(onChange: (insets: Insets) => void): () => Insets {
  const hud = document.getElementById('hud')!;
  const bottom = document.getElementById('bottom-bar')!;
  const log = document.getElementById('log')!;
  const panel = document.getElementById('panel')!;
  let current: Insets = { top: 0, bottom: 0, left: 0, right: 0 };
  const measure = () => {
    const next = {
      top: Math.ceil(hud.getBoundingClientRect().height),
      bottom: Math.ceil(bottom.getBoundingClientRect().height),
      left: Math.ceil(log.getBoundingClientRect().right) + 8,
      right: panel.hidden ? 0 : Math.ceil(window.innerWidth - panel.getBoundingClientRect().left) + 8,
    };
    if (next.top === current.top && next.bottom === current.bottom && next.left === current.left && next.right === current.right) return;
    current = next;
    document.documentElement.style.setProperty('--hud-h', `${next.top}px`);
    document.documentElement.style.setProperty('--bottom-h', `${next.bottom}px`);
    onChange(next);
  };
  const observer = new ResizeObserver(measure);
  observer.observe(hud);
  observer.observe(bottom);
  observer.observe(log);
  observer.observe(panel);
  window.addEventListener('resize', measure);
  measure();
  return () => current;
}

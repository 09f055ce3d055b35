/**
 * A stage's color from its position: hues a golden angle apart, so neighbouring stages contrast
 * and any number of stages get distinct colors, the same on every render.
 */
export function stageColor(position: number): string {
  const hue = (position * 137.508) % 360;
  return hslToHex(hue, 0.62, 0.48);
}

function hslToHex(hue: number, saturation: number, lightness: number): string {
  const amplitude = saturation * Math.min(lightness, 1 - lightness);
  const channel = (offset: number): string => {
    const k = (offset + hue / 30) % 12;
    const value = lightness - amplitude * Math.max(-1, Math.min(k - 3, 9 - k, 1));
    return Math.round(value * 255).toString(16).padStart(2, '0');
  };
  return `#${channel(0)}${channel(8)}${channel(4)}`;
}

#version 330 core
// warpscope memory heat map: a texture of per-element counts (one texel per buffer element,
// row-major, uSize.x elements per row) mapped through a perceptual colormap. Untouched elements
// stay dark; cells get a thin outline when they are large enough to see one.
in vec2 vUV;
out vec4 fragColor;

uniform sampler2D uCounts;   // R32F
uniform ivec2 uSize;         // elements per row, rows
uniform int uCount;          // elements in the buffer (the last row may be partial)
uniform float uMax;          // the largest count
uniform int uLog;            // 1: log scale
uniform int uHover;          // hovered element, -1 for none

// A viridis-like ramp (dark blue -> green -> yellow), readable by colour-blind viewers.
vec3 ramp(float t) {
    const vec3 c0 = vec3(0.267, 0.005, 0.329);
    const vec3 c1 = vec3(0.230, 0.322, 0.546);
    const vec3 c2 = vec3(0.128, 0.567, 0.551);
    const vec3 c3 = vec3(0.369, 0.789, 0.383);
    const vec3 c4 = vec3(0.993, 0.906, 0.144);
    float s = clamp(t, 0.0, 1.0) * 4.0;
    if (s < 1.0) return mix(c0, c1, s);
    if (s < 2.0) return mix(c1, c2, s - 1.0);
    if (s < 3.0) return mix(c2, c3, s - 2.0);
    return mix(c3, c4, s - 3.0);
}

void main() {
    vec2 cellF = vUV * vec2(uSize);
    ivec2 cell = min(ivec2(floor(cellF)), uSize - ivec2(1));
    int index = cell.y * uSize.x + cell.x;
    if (index >= uCount) {
        fragColor = vec4(0.16, 0.16, 0.18, 1.0);
        return;
    }
    float v = texelFetch(uCounts, cell, 0).r;
    vec3 c;
    if (v <= 0.0) {
        c = vec3(0.07, 0.07, 0.09);
    } else {
        float t = uLog == 1 ? log(1.0 + v) / log(1.0 + max(uMax, 1.0)) : v / max(uMax, 1.0);
        c = ramp(0.12 + 0.88 * t);
    }
    // Cell outlines, only where a cell spans several pixels.
    vec2 f = fract(cellF);
    vec2 px = fwidth(cellF);
    if (px.x < 0.25 && px.y < 0.25) {
        if (f.x < px.x || f.y < px.y) c *= 0.6;
    }
    if (index == uHover) c = mix(c, vec3(1.0), 0.55);
    fragColor = vec4(c, 1.0);
}

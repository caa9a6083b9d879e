#version 330 core
// warpscope memory heat map: one quad covering the panel's image rectangle (no vertex buffer;
// the corners come from gl_VertexID). uRect is in ImGui display coordinates.
uniform vec4 uRect;      // x0, y0, x1, y1
uniform vec4 uDisplay;   // display pos x, y, size w, h
out vec2 vUV;

void main() {
    vec2 corner = vec2(float(gl_VertexID & 1), float((gl_VertexID >> 1) & 1));
    vec2 p = mix(uRect.xy, uRect.zw, corner);
    vec2 ndc = vec2((p.x - uDisplay.x) / uDisplay.z * 2.0 - 1.0, 1.0 - (p.y - uDisplay.y) / uDisplay.w * 2.0);
    vUV = corner;
    gl_Position = vec4(ndc, 0.0, 1.0);
}

// Version strings the APIs announce. v2's form is a.b.c: 2 (the API), 2 (this TypeScript implementation;
// toncenter's Python service is 0 and its C++ one 1), then Atlas's release number.
export const ATLAS_RELEASE = 0;
export const V2_API_VERSION = `2.2.${ATLAS_RELEASE}`;

/** The web view's icon: a point that paths spiral into, drawn in the page's accent colour. */
export const FAVICON_SVG = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32">
<rect width="32" height="32" rx="7" fill="#4f46e5"/>
<path d="M16 5a11 11 0 1 1-11 11 8 8 0 0 1 8-8 5.5 5.5 0 0 1 5.5 5.5A3 3 0 0 1 15.5 16.5" fill="none" stroke="#fff" stroke-width="2.6" stroke-linecap="round"/>
<circle cx="16" cy="16" r="2.2" fill="#fff"/>
</svg>
`;

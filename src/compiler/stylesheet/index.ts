export { applyStylesheet, resolveStyle, selectorMatches } from './apply-stylesheet.js';
export { checkStylesheetSyntax, MAX_STYLESHEET_LENGTH, parseStylesheet } from './parse-stylesheet.js';
export { convertStyleProperty, parseDurationMs, STYLE_PROPERTY_NAMES } from './style-properties.js';
export {
  SELECTOR_SPECIFICITY,
  type StyleDeclaration,
  type StyleProperty,
  type StyleRule,
  type StyleSelector,
  type Stylesheet,
  type StyleValues,
} from './stylesheet.js';
export { StylesheetSyntaxError } from './stylesheet-syntax-error.js';

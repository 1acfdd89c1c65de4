import { useContext } from 'react';
import { type Theme, ThemeContext } from './theme.js';

export function useTheme(): Theme {
  return useContext(ThemeContext);
}

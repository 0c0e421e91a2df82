// Chromium for the dev scripts here, started as the browser tests start it (scripts/chromium.mjs).
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../chromium.mjs';

export const launchChromium = () =>
  chromium.launch({ executablePath: CHROMIUM_PATH, args: [...CHROMIUM_ARGS] });

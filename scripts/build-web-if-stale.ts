/** `npm start`'s first step: build the web app only when its sources changed since the last build. */
import { ensureWebBuilt } from './web-build';

ensureWebBuilt();

// One definition, shared with the web app, which explains the points where reputation is shown.
export { REPUTATION } from '../../../contract/limits';

/** Entry of the web console bundle: renders the app into #app. */
import { render } from 'preact';
import { createAccountClient } from '../../../src/client/account.js';
import { App } from './app.js';

render(<App account={createAccountClient({ baseUrl: '' })} />, document.getElementById('app') as HTMLElement);

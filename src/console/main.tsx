// The operator console's entry: mounts the app into #app (index.html).
import { render } from 'preact';
import 'uplot/dist/uPlot.min.css';
import './styles.css';
import { App } from './app.js';

const root = document.getElementById('app')!;
// index.html's "Loading…" is plain markup, not Preact's: clear it before the first render.
root.replaceChildren();
render(<App />, root);

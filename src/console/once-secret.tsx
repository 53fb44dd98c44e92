// A secret the server shows once (a webhook's signing secret, an API key): on screen, with a copy
// button, until the ADMIN says it is saved; it is never stored by the console.
import { useRef, useState } from 'preact/hooks';

type Copied = 'copied' | 'failed' | undefined;

/**
 * Puts `text` on the clipboard. The Clipboard API exists only in a secure context (https, or
 * http on localhost), so a console served over plain http elsewhere falls back to copying a
 * selection, which browsers still allow from a click.
 */
async function copy(text: string, element: HTMLElement | null): Promise<boolean> {
  try {
    if (navigator.clipboard) {
      await navigator.clipboard.writeText(text);
      return true;
    }
  } catch {
    // refused (permission, focus): try the selection below
  }
  if (!element) return false;
  const selection = getSelection();
  selection?.selectAllChildren(element);
  try {
    // Deprecated, but the one way left without the Clipboard API.
    return document.execCommand('copy');
  } catch {
    return false;
  }
}

export function OnceSecret({ label, value, onDone }: { label: string; value: string; onDone: () => void }) {
  const [copied, setCopied] = useState<Copied>();
  const code = useRef<HTMLElement>(null);
  return (
    <div class="once" role="status">
      <p>
        <strong>{label}</strong>: copy it now, it will not be shown again.
      </p>
      <code class="secret" ref={code}>
        {value}
      </code>
      <div class="actions">
        <button type="button" onClick={() => void copy(value, code.current).then((ok) => setCopied(ok ? 'copied' : 'failed'))}>
          Copy
        </button>
        <button type="button" class="secondary" onClick={onDone}>
          I have saved it
        </button>
        {copied === 'copied' ? <span class="ok-text">Copied to the clipboard.</span> : null}
        {copied === 'failed' ? <span class="bad-text">Could not copy: select the text and copy it.</span> : null}
      </div>
    </div>
  );
}

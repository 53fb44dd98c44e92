// A secret the server shows once (a webhook's signing secret, an API key): on screen until the
// ADMIN says it is saved; it is never stored by the console.
export function OnceSecret({ label, value, onDone }: { label: string; value: string; onDone: () => void }) {
  return (
    <div class="once" role="status">
      <p>
        <strong>{label}</strong>: copy it now, it will not be shown again.
      </p>
      <code class="secret">{value}</code>
      <button type="button" class="secondary" onClick={onDone}>
        I have saved it
      </button>
    </div>
  );
}

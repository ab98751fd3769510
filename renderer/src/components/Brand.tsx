import './Brand.css';
/** The Desk mark and name: in the sidebar, and larger on the sign-in card. */
export function Brand({ large = false }: { large?: boolean }) {
  return (
    <div className={large ? 'brand brand--large' : 'brand'}>
      <span className="brand__mark" aria-hidden="true">
        D
      </span>
      Desk
    </div>
  );
}

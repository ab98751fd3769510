/** What a finished action did ("Added …"), announced as a status; nothing while there is no message. */
export function SuccessNotice({ message }: { message: string }) {
  if (!message) return null;
  return (
    <p className="notice notice--success" role="status">
      <span>{message}</span>
    </p>
  );
}

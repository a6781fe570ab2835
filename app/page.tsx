export default function HomePage() {
  return (
    <main>
      <h1>Workspace Analytics</h1>
      <p>The dashboard shell. Pages arrive with the dashboard issue.</p>
    </main>
  );
}

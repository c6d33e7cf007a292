import ReactMarkdown from "react-markdown";

// Agent output as Markdown; raw HTML in it is not rendered (react-markdown's safe default).
export function Markdown({ text }: { text: string }) {
  return (
    <div className="markdown">
      <ReactMarkdown>{text}</ReactMarkdown>
    </div>
  );
}

/** The signed-in home page: profile editor, keyed list, and search. */
import { Each } from "../../../src/mod.ts";
import type { SignedIn } from "../model.ts";
import type { Item } from "../store.ts";
import { ui } from "./messages.ts";

export function HomePage({ model }: { model: SignedIn }) {
  return (
    <div class="grid">
      <ProfileCard model={model} />
      <ListCard model={model} />
      <SearchCard model={model} />
    </div>
  );
}

/**
 * The server normalises both fields as they are typed (name: title case; handle: lower case) and
 * saves on commit. The client keeps every keystroke and shows the normalised value once acked.
 */
function ProfileCard({ model }: { model: SignedIn }) {
  const status = model.saveFailed
    ? "Could not save."
    : model.saveAsked === 0
    ? "Saved when you leave a field."
    : model.saveDone >= model.saveAsked
    ? "Saved."
    : "Saving…";
  const preview = model.name.trim() === "" ? "No name yet" : `${model.name.trim()}${model.handle ? ` (@${model.handle})` : ""}`;
  return (
    <section class="card" id="profile">
      <h2>Profile</h2>
      <label for="name">Display name</label>
      <input
        id="name"
        name="name"
        value={model.name}
        onInput={ui.msg("SetName")}
        onChange={ui.msg("CommitProfile")}
        autocomplete="off"
        placeholder="Ada Lovelace"
      />
      <label for="handle">Handle</label>
      <input
        id="handle"
        name="handle"
        value={model.handle}
        onInput={ui.msg("SetHandle")}
        onChange={ui.msg("CommitProfile")}
        autocomplete="off"
        placeholder="ada"
      />
      <p class="muted" id="profile-preview">{preview}</p>
      <p class="muted" id="save-status">{status}</p>
    </section>
  );
}

/**
 * A row of the list: a function of its item alone, so that `<Each>` builds it again only when the
 * item changed (docs/live-apps.md#lists). The first row's up and last row's down buttons are hidden
 * by the stylesheet rather than disabled here, which would make the row depend on its place.
 */
const ItemRow = (item: Item) => (
  <li>
    <span>{item.text}</span>
    <button class="small up" title="Move up" onClick={ui.msg("MoveItem", item.id, -1)}>↑</button>
    <button class="small down" title="Move down" onClick={ui.msg("MoveItem", item.id, 1)}>↓</button>
    <button class="small remove" title="Remove" onClick={ui.msg("RemoveItem", item.id)}>✕</button>
  </li>
);

function ListCard({ model }: { model: SignedIn }) {
  // Style props: what inline CSS cannot say (hover, transitions) becomes an injected <style>.
  return (
    <section class="card" id="items">
      <h2>To do</h2>
      <form class="row" onSubmit={ui.msg("AddItem")} id="add-form">
        <input id="draft" name="draft" value={model.draft} onInput={ui.msg("SetDraft")} autocomplete="off" placeholder="Something to do" />
        <button type="submit" id="add" transition="background-color .2s" hover={{ "background-color": "#eef2fd" }}>Add</button>
      </form>
      {!model.itemsLoaded && <p class="muted">Loading your list…</p>}
      {model.itemsFailed && <p class="error">Could not save the list.</p>}
      <ul class="list" id="item-list">
        <Each items={model.items} by={(item) => item.id} row={ItemRow} />
      </ul>
    </section>
  );
}

export const LANGUAGES = [
  "Ada",
  "Bash",
  "C",
  "C++",
  "Clojure",
  "COBOL",
  "Crystal",
  "Dart",
  "Elixir",
  "Elm",
  "Erlang",
  "F#",
  "Fortran",
  "Gleam",
  "Go",
  "Haskell",
  "Java",
  "JavaScript",
  "Julia",
  "Kotlin",
  "Lisp",
  "Lua",
  "Nim",
  "OCaml",
  "Pascal",
  "Perl",
  "PHP",
  "Prolog",
  "Python",
  "R",
  "Racket",
  "Ruby",
  "Rust",
  "Scala",
  "Scheme",
  "Smalltalk",
  "SQL",
  "Swift",
  "TypeScript",
  "Zig",
];

export function searchResults(query: string): string[] {
  const q = query.trim().toLowerCase();
  return q === "" ? LANGUAGES : LANGUAGES.filter((name) => name.toLowerCase().includes(q));
}

/** A search result: a name, the same string from one search to the next, so its row is kept. */
const ResultRow = (name: string) => <li>{name}</li>;

function SearchCard({ model }: { model: SignedIn }) {
  const results = searchResults(model.query);
  return (
    <section class="card" id="search">
      <h2>Search</h2>
      <input
        id="query"
        name="query"
        type="search"
        value={model.query}
        onInput={ui.msg("Search")}
        autocomplete="off"
        placeholder="Filter languages"
      />
      <p class="muted" id="hits">{results.length} of {LANGUAGES.length}</p>
      <ul class="list" id="results">
        <Each items={results} by={(name) => name} row={ResultRow} />
      </ul>
    </section>
  );
}

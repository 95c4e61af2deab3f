// The hand form's scripts (loaded as modules by hand.html and scoreboard.html, after app.js and
// live.js, whose window.canastaQueue and window.scorekeeperText they use).
//
// Entry that survives a dropped connection with or without a service worker (a phone on plain
// http:// gets none): the form is sent by script, and when the server cannot be reached the hand
// goes into the phone's queue (app.js), shown as waiting and sent when the connection is back. The
// scoreboard and the next hand's form are both kept in the page (panel.js), so moving between them
// needs no network either. Without script the form is an ordinary form and the links are ordinary links.
//
//   form.js     one hand form: counts.js (steppers, typing), preview.js (the live score),
//               problems.js (messages beside their fields), draft.js (kept on the phone),
//               send.js (saving, or keeping it in the queue), entry.js (the hand in the API's shape)
//   panel.js    the scoreboard and the next hand's form in one page: board.js (its state),
//               kept.js (the other view, fetched in the background)
//   net.js      requests that give up, pages parsed;  text.js  numbers, texts, the queue
import { board, setNext, setUp, watch, PANEL } from "./board.js";
import { initForm } from "./form.js";
import { changes, fetchForm, fetchScore } from "./kept.js";
import { openHand, startForm, wireNavigation } from "./panel.js";
import { sentFromHere } from "./send.js";

function start(main) {
  // Back to a page kept by the browser after it was sent: its key is used up, so a new entry there
  // would be taken for the same hand sent twice. Load it fresh instead.
  window.addEventListener("pageshow", (event) => {
    if (event.persisted && sentFromHere()) location.reload();
  });
  const handForm = main.querySelector("form.hand-form");
  const startedAs = handForm && handForm.dataset.queueUrl ? "hand" : !handForm && main.dataset.liveGame ? "score" : null;
  if (!startedAs) {  // a correction (or no form): the form alone
    if (handForm) initForm(handForm);
    return;
  }
  setUp(main, startedAs);
  wireNavigation();
  watch(changes);
  if (startedAs === "hand") {
    startForm(handForm);
    fetchScore();
  } else {
    setNext(board.gameUrl);
    fetchForm().then((ok) => {  // the panel's own address, loaded again: open it again
      if (ok && location.search === PANEL && !board.panel) openHand(false);
    });
  }
}

const main = document.querySelector("main");
if (main) start(main);

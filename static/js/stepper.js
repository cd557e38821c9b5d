// The − and + of an amount stepper (the number field works without it).
document.addEventListener("click", (event) => {
  const button = event.target.closest("button.step");
  if (!button) return;
  const input = button.parentElement.querySelector("input[type=number]");
  const next = Number(input.value || input.min) + Number(button.dataset.step);
  input.value = Math.min(Number(input.max), Math.max(Number(input.min), next));
});

// The running total of ticked cards (the Gold of a payment); the engine still checks the payment.
document.addEventListener("change", (event) => {
  const picker = event.target.closest("fieldset.totalled");
  if (!picker) return;
  let total = 0;
  for (const box of picker.querySelectorAll("input[data-worth]:checked")) total += Number(box.dataset.worth);
  const output = picker.querySelector("output[data-total]");
  if (output) output.value = String(total);
});

// The King's Dilemma's draw: picking a card met before fills in its front from the campaign (the
// fronts the page carries; never a back). The host only confirms, or corrects a token first.
document.addEventListener("change", (event) => {
  const picker = event.target.closest("select[data-fill-front]");
  if (!picker) return;
  const form = picker.form;
  const fronts = JSON.parse(form.dataset.knownFronts || "{}");
  const card = fronts[picker.value];
  for (const [name, value] of Object.entries(card || {})) {
    const fields = form.elements[name];
    if (!fields) continue;
    if (fields instanceof RadioNodeList) {
      for (const radio of fields) radio.checked = radio.value === String(value);
    } else {
      fields.value = value;
    }
  }
  if (!card) for (const name of ["number", "title", "question"]) form.elements[name].value = "";
});

// The King's Dilemma's draw: a number the draw refuses (already drawn tonight, or out of the Dilemma
// deck) is refused as it is typed, with the engine's sentence, before the title and the tokens.
document.addEventListener("input", (event) => {
  const field = event.target.closest("form[data-undrawable] input[name=number]");
  if (!field) return;
  const why = JSON.parse(field.form.dataset.undrawable)[field.value.trim()];
  const said = field.form.querySelector("[data-number-refusal]");
  said.textContent = why || "";
  said.hidden = !why;
  field.setAttribute("aria-invalid", why ? "true" : "false");
});

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

// The − and + of an amount stepper (the number field works without it).
document.addEventListener("click", (event) => {
  const button = event.target.closest("button.step");
  if (!button) return;
  const input = button.parentElement.querySelector("input[type=number]");
  const next = Number(input.value || input.min) + Number(button.dataset.step);
  input.value = Math.min(Number(input.max), Math.max(Number(input.min), next));
});
